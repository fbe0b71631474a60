"""The reader's controllers: its state and decisions as plain classes and functions, which
the screens and the app wire to widgets, workers and messages. None imports Textual."""
