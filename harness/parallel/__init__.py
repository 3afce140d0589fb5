"""Running jobs side by side, on this machine or a dask cluster, from warm processes."""
