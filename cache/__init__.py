"""The persistent artifact cache: stable keys (`keys`), the store (`store`), manifests (`manifest`)."""
