"""Reading the Markdown pages: includes, fences, anchors, and what the build refuses."""
