"""The input side: where objects come from, their value types and the checks
of their fields (crd_schema: OME's CRD schemas as data; schema_check: an
object checked as the Kubernetes API server checks it)."""

__all__: list[str] = []
