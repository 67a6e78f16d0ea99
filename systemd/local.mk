# systemd units (distributed; installing them comes with socket activation).
EXTRA_DIST += systemd/haptixd.service
