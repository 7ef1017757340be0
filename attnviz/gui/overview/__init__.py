"""Every layer × head at a glance (View → Overview)."""
