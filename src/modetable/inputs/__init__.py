"""The input side: Kubernetes objects from files, folders, standard input or
memory into a `Cluster` of the kinds the rules name, every field checked
(`loading`, the one loader; `manifests`; `objects`)."""

__all__: list[str] = []
