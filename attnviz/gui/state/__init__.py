"""What the window holds: the document and its undo stack, the edits as commands, what is remembered, the crash copy."""
