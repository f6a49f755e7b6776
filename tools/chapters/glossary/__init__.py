"""The glossary pages as data, and the search words made from them."""
