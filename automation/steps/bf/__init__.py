"""The Battlefront: WWII Basic Campaign refit (seed 001), one module per step."""
