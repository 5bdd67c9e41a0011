"""What a question is: ``followup`` (does it stand alone; folding the last turn in) · ``kinds`` (definition,
procedural, comparison, complex, factual) · ``definitions`` (the term a "What is X?" question defines, and the
sentences that define it) · ``decompose`` (two questions in one)."""
