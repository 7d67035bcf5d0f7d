"""The kubernetes Python client, as far as the example DAGs build pod specs with it."""
