"""The executed-code engine: read a snippet, run it in a child, record and stamp its output."""
