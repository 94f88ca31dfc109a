"""Retrieval shared by every flow: tokenising, BM25 keyword search, embeddings."""
