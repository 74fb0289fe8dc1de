"""Results: Result, Results and the intervals of a mean."""
