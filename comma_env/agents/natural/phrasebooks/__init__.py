"""Each puzzle's plain English, both ways and in both seats (`base.Phrasebook`, found by `base.phrasebook`): one
module per puzzle, named by the puzzle's spec (``PuzzleSpec.phrasebook``)."""
