-- Version 11: each move review kept, so a review asked for again is shown at once.
--
-- move_reviews: the hard AI's review of one seat of a finished game (engine.review), as a
-- JSON list of judgements, one per decision of the seat in game order; made with the review
-- seed and worlds stored beside it. Deleted with its game.

CREATE TABLE move_reviews (
    table_id TEXT NOT NULL REFERENCES finished_games (table_id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL CHECK (seat >= 0),
    seed     INTEGER NOT NULL,
    worlds   INTEGER NOT NULL CHECK (worlds >= 1),
    review   TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
