"""Generate, then render: what the pages include that is made from data, written
before any engine runs (``generate``), and each page's machinery as final HTML."""
