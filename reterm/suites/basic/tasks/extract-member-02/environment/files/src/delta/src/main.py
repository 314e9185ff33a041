# delta 704
value=187056
