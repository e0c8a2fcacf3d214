"""Python op classes of the `tile` dialect (generated from its ODS)."""
