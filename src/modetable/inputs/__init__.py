"""The input side, where everything modetable reads about a cluster comes in:
where objects come from (`sources`: files, folders, standard input, lists;
`objects`: objects already in memory), the cluster's value types
(`manifests`: `Manifest`, `Cluster`), the typed, located reads of their fields
(`fields`, `formats`), the one registry of field checks every object passes
(`checks`, with `admission_fields` and `runtime_admission`: OME's
ServingRuntime webhook on apply), OME's CRD schemas as data (`crd_schema`)
and an object checked as the Kubernetes API server checks it
(`schema_check`), and the loader that runs them all (`loading`)."""

__all__: list[str] = []
