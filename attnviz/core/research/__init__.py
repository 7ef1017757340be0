"""The research workbench: what an interpretability researcher asks of a real model's runs, in
numpy, each result an array with the names of its axes.

    parts.py         a run's pieces per layer: each head's output and weights, logits anywhere
    answer.py        one token named by its text or its id (#ID)
    patch.py         activation patching between a clean and a corrupted prompt
    lens.py          the logit lens: each layer's residual stream read as the model's answer
    attribution.py   each head's and feed-forward's direct contribution to one token's logit
    sweep.py         every head switched off (or set to its mean) in turn
    head_types.py    previous-token, induction, duplicate-token, sink and local scores per head
    continuation.py  a given continuation's tokens: their probability, rank and rivals
    tables.py        each result as a long-form table: CSV, .npz, a pandas DataFrame
    interventions.py the usual writes at a hook point: zero, add (steering), replace, project_out, mean

The same functions serve the window, the command line (attnviz patch, lens, attribute, sweep,
heads) and the Python API (attnviz.api).
"""
