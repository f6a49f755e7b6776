"""The changelog page: what changed for detach between the checked torch releases."""
