"""The ASL A Bridge Too Far refit (seed 003), one module per RePh step."""
