"""What every feature of the window uses: tr() and the languages, rich-text labels, deferred
redraws, item roles, actions, the undo keys, dialogs built off the GUI thread, the Shell."""
