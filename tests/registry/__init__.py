"""The generic checks, run on every puzzle registered when the tests are collected."""
