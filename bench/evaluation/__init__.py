"""The memory evaluation of seed 003 section 7 (`python manage.py eval_memory`).

`scenarios` holds the scenarios as data, `verdicts` judges what a run observed and derives
the no-memory baseline, `report` aggregates and prints the table; these three are pure.
`runner` drives the real product paths (chat, extraction, session end, deletion, context,
search, export) for throwaway users. It is the one module of the memories app that imports
`conversations`: an end-to-end harness has to drive the whole product.
"""
