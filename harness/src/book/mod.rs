//! Opening books: reading EPD and PGN books, and making the project's own.
