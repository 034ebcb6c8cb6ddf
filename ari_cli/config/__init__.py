"""Settings and their sources, the config file, the API key and its masking."""
