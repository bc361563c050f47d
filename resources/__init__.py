"""Plain data files shipped with the app: policy, example plans, translations, icons, fonts."""
