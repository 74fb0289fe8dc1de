"""The unsupervised fusion methods, one module each (``registry.load_methods`` imports
them; each registers itself)."""
