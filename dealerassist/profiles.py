"""House-rule profiles: config/house_rules/*.toml -> HouseRules (the only place TOML is read)."""
