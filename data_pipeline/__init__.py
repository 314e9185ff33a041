"""Recovery-demonstration data pipeline (collect, synthesize, recover, build). Not implemented yet."""
