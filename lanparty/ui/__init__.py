"""The terminal user interface. Only ``lanparty.ui.app`` imports prompt-toolkit; the parsing
of typed commands (``commands``) and the table's text (``render``) are plain Python."""
