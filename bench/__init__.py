"""Benchmarks and the evaluation harness: the `bench_*`, `score_*` and `eval_memory` commands
and the data they generate. Installed in development and CI (`MEMORYHUB_BENCH`), never in a
production deployment, and never imported by the product's apps."""
