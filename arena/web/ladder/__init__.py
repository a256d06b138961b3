"""The ladder\x27s pages and API (arena ladder serve): routes.py, auth.py, views.py."""
