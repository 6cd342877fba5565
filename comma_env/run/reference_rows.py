"""Our realistic scripted pair measured in the paper's setting (10 turns, 3 mistakes,
seeds 0..99 of each puzzle). Written by examples/reference_rows.py; do not edit."""

REALISTIC_PAIR = {'episodes': 100, 'psr': {'wire': (100.0, 0.0), 'telehealth': (100.0, 0.0), 'who': (100.0, 0.0), 'led': (100.0, 0.0), 'memory': (100.0, 0.0), 'keypad': (100.0, 0.0), 'password': (100.0, 0.0), 'color': (100.0, 0.0), 'maze': (100.0, 0.0), 'atm': (100.0, 0.0)}, 'sr': {'wire': (100.0, 0.0), 'telehealth': (100.0, 0.0), 'who': (100.0, 0.0), 'led': (100.0, 0.0), 'memory': (100.0, 0.0), 'keypad': (100.0, 0.0), 'password': (100.0, 0.0), 'color': (100.0, 0.0), 'maze': (100.0, 0.0), 'atm': (100.0, 0.0)}, 'overall': {'psr': (100.0, 0.0), 'sr': (100.0, 0.0)}}
