"""The Musterroll extension for LibreOffice Calc: a toolbar with a Refit button."""
