"""Load test: simulated people chatting with a running `make run`, driven by Locust.

`python -m bench.loadtest.run --url http://127.0.0.1:8000` (see `loadtest/run.py`); the people are
`bench/loadtest/locustfile.py`, what they write is `loadtest/people.py`, and what the driver samples
while they chat (CPU per process, database connections) is `loadtest/sampling.py`.
"""
