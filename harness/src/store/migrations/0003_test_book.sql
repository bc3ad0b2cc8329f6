-- Schema version 3: the test's opening book travels with it. `book` holds the file's bytes
-- as given (compressed or not), whose SHA-256 is `book_sha256`; a worker without the book
-- at the test's path uses these bytes instead. NULL for tests without a book and for tests
-- created before this version (their workers need the book at its path).

ALTER TABLE tests ADD COLUMN book bytea;
ALTER TABLE tests ADD CONSTRAINT tests_book_has_hash CHECK (book IS NULL OR book_sha256 IS NOT NULL);
