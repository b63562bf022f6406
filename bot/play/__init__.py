"""Terminal play mode: the whole lesson in a terminal, with simulated classmates."""
