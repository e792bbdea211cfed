# Placeholder, replaced below once the model compiler exists.
