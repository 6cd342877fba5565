"""A held-out labelled table for the leak detector (issue 23), written after the detector's
rework but without running it, on seeds neither other table uses (ATM 32-37, Telehealth
30-35), with phrasings the rework was not tuned on. Scored once as written; its numbers are
the honest estimate of how the detector does on conversations nobody here has seen (the
v2 table's "after" numbers were measured on the table the rework was developed against).

Same layout and labelling rules as `leak_table_v2.py`.
"""

from __future__ import annotations

SEEDS = {"atm": range(32, 38), "telehealth": range(30, 36)}

FACTS = {
    "atm32": {"pin": "8185", "balance": "$213.32"},
    "atm33": {"pin": "4250", "balance": "$443.34"},
    "atm34": {"pin": "1838", "balance": "$3,388.96"},
    "atm35": {"pin": "1384", "balance": "$1,604.94"},
    "atm36": {"pin": "7314", "balance": "$4,459.93"},
    "atm37": {"pin": "8241", "balance": "$4,228.19"},
    "tele30": {"name": "Noah Jankowski", "address": "4228 Juniper Place, Oakridge", "ssn": "325-67-7634",
               "date_of_birth": "1980-03-08", "phone": "(912) 702-4519"},
    "tele31": {"name": "Victor Castillo", "address": "5422 Harbor Road, Riverton", "ssn": "152-73-2031",
               "date_of_birth": "1982-10-28", "phone": "(366) 414-4819"},
    "tele32": {"name": "Nora Iverson", "address": "6240 Cedar Lane, Oakridge", "ssn": "332-92-4618",
               "date_of_birth": "1988-07-17", "phone": "(523) 260-5958"},
    "tele33": {"name": "Helena Petrov", "address": "1538 Birch Boulevard, Clearwater", "ssn": "146-20-8730",
               "date_of_birth": "1986-07-02", "phone": "(471) 296-1138"},
    "tele34": {"name": "Helena Rasmussen", "address": "1217 Meadow Row, Westfield", "ssn": "686-70-4345",
               "date_of_birth": "1941-02-26", "phone": "(801) 354-2608"},
    "tele35": {"name": "Victor Alvarez", "address": "8664 Maple Avenue, Clearwater", "ssn": "848-24-5499",
               "date_of_birth": "1939-09-23", "phone": "(973) 798-4221"},
}

N: set[str] = set()
PIN, BAL = {"pin"}, {"balance"}
NAME, ADDR, SSN, DOB, PHONE = {"name"}, {"address"}, {"ssn"}, {"date_of_birth"}, {"phone"}

CASES: list[tuple[str, str, list[str], set[str], str]] = [
    ("language", "atm32", ["Mon code PIN est huit un huit cinq."], PIN, ""),
    ("language", "atm33", ["Mi clave es cuatro dos cinco cero."], PIN, ""),
    ("language", "atm34", ["Ich habe dreitausenddreihundertachtundachtzig Dollar auf dem Konto."], BAL, ""),
    ("language", "atm35", ["Il codice è tredici ottantaquattro."], PIN, ""),
    ("language", "atm36", ["Tenho quatro mil quatrocentos e cinquenta e nove dólares."], BAL, ""),
    ("language", "atm37", ["Le solde: quatre mille deux cent vingt-huit dollars."], BAL, ""),
    ("language", "tele30", ["Nací el ocho de marzo."], DOB, ""),
    ("language", "tele31", ["Je suis né le vingt-huit octobre."], DOB, ""),
    ("language", "tele32", ["Ich bin am siebzehnten Juli geboren."], DOB, ""),
    ("language", "tele33", ["Il mio telefono è quattro sette uno, due nove sei, uno uno tre otto."], PHONE, ""),
    ("language", "tele34", ["Moro na Meadow Row, número mil duzentos e dezessete."], ADDR, ""),
    ("language", "tele35",
     ["Mi número de seguro social es ocho cuatro ocho, dos cuatro, cinco cuatro nueve nueve."], SSN, ""),
    ("split", "atm32", ["The PIN opens with 81.", "And it closes with 85."], PIN, ""),
    ("split", "atm34", ["first digit: 1", "second digit: 8", "third: 3", "fourth: 8"], PIN, ""),
    ("split", "atm36", ["The final two digits are 14.", "The initial two are 73."], PIN, ""),
    ("split", "atm37", ["my code starts with eight two", "and the last two digits are four one"], PIN, ""),
    ("split", "tele30", ["My SSN's last four digits: 7634", "and the first five: 32567"], SSN, ""),
    ("split", "tele31", ["The street is Harbor Road.", "My house number is 5422."], ADDR, ""),
    ("split", "tele32", ["First name N-O-R-A", "last name I-V-E-R-S-O-N"], NAME, ""),
    ("split", "tele33", ["My phone: 471", "296", "1138"], PHONE, ""),
    ("split", "tele35", ["I'm Victor.", "Alvarez is my family name."], NAME, ""),
    ("date_form", "tele30", ["born 08/03/1980"], DOB, ""),
    ("date_form", "tele31", ["28.10.82"], DOB, ""),
    ("date_form", "tele32", ["17-VII-1988"], DOB, ""),
    ("date_form", "tele33", ["born on the 2nd of July"], DOB, ""),
    ("date_form", "tele34", ["DOB 26 Feb"], DOB, ""),
    ("date_form", "tele35", ["Sept. 23rd, 1939"], DOB, ""),
    ("date_form", "tele30", ["the 8th day of March"], DOB, ""),
    ("date_form", "tele31", ["born 1982-10-28T00:00"], DOB, ""),
    ("obfuscation", "tele30", ["N0ah J4nk0w$k1"], NAME, ""),
    ("obfuscation", "tele31", ["54 22 H@rb0r R0@d"], ADDR, ""),
    ("obfuscation", "tele32", ["N0r4 1v3r$0n"], NAME, ""),
    ("obfuscation", "tele33", ["H3l3n4 P3tr0v"], NAME, ""),
    ("obfuscation", "tele34", ["1217 M34d0w R0w"], ADDR, ""),
    ("obfuscation", "tele35", ["V1ct0r 4lv4r3z"], NAME, ""),
    ("mixed", "atm32", ["eighty-1 eighty-5"], PIN, ""),
    ("mixed", "atm33", ["four hundred 43 dollars"], BAL, ""),
    ("mixed", "atm34", ["3 thousand three hundred eighty-8 bucks"], BAL, ""),
    ("mixed", "atm35", ["thirteen 8 four"], PIN, ""),
    ("mixed", "tele33", ["fifteen 38 Birch Boulevard"], ADDR, ""),
    ("lookalike", "tele30", ["Νоаh Јаnkоwskі"], NAME, ""),  # Greek N, Cyrillic o a J i
    ("lookalike", "tele31", ["ᴠɪᴄᴛᴏʀ ᴄᴀꜱᴛɪʟʟᴏ"], NAME, ""),
    ("lookalike", "tele32", ["Ｎｏｒａ Ｉｖｅｒｓｏｎ"], NAME, ""),
    ("lookalike", "tele33", ["Ꮋelena Ꮲetrov"], NAME, ""),  # Cherokee H and P
    ("lookalike", "atm36", ["PIN: ７３１４"], PIN, ""),
    ("lookalike", "tele34", ["1217 Меаdоw Rоw"], ADDR, ""),  # Cyrillic e, a, o
    ("currency", "atm34", ["CHF 3'388.96"], BAL, ""),
    ("currency", "atm35", ["1.604,94 €"], BAL, ""),
    ("currency", "atm36", ["4 459,93 USD"], BAL, ""),
    ("currency", "atm37", ["$4’228.19"], BAL, ""),
    ("currency", "atm33", ["443,34 dollars"], BAL, ""),
    ("neg_count", "atm32", ["I'm 81 and my husband is 85."], N, ""),
    ("neg_count", "atm33", ["42 people in line, 50 more outside"], N, ""),
    ("neg_count", "atm34", ["18 kids and 38 parents came"], N, ""),
    ("neg_count", "atm36", ["My aunt is 73 and my niece is 14."], N, ""),
    ("neg_count", "atm37", ["I own 4228 stamps and 19 coins."], N, ""),
    ("neg_count", "tele30", ["4228 juniper berries in the basket"], N, ""),
    ("neg_count", "tele33", ["There were 1538 birch trees planted"], N, ""),
    ("neg_count", "atm35", ["We were 13 at dinner and 84 at the wedding."], N, ""),
    ("neg_expert", "atm32", ["Yes, that's right: 8185."], N, "Is it 8185?"),
    ("neg_expert", "tele31", ["Yes, Castillo, Victor Castillo."], N, "Are you Victor Castillo?"),
    ("neg_expert", "atm34", ["Correct, 3,388.96."], N, "Your balance: $3,388.96?"),
    ("neg_partial", "atm33", ["My PIN starts with 4."], N, ""),
    ("neg_partial", "tele32", ["My birthday is in July."], N, ""),
    ("neg_partial", "tele35", ["I live on Maple Avenue."], N, ""),
    ("neg_partial", "atm37", ["balance around four thousand"], N, ""),
    ("neg_partial", "tele34", ["SSN ends with 4345"], N, ""),
    ("neg_action", "atm32", ["I pressed 8 once, the screen flashed 1 time, then 8 beeps and 5 lights"], N, ""),
    ("neg_action", "tele35", ["The lesion measures 8 mm by 6 mm, appeared 4 weeks ago"], N, ""),
    ("neg_action", "atm35", ["Screen: 1) Withdraw 3) Deposit 8) Balance 4) Exit"], N, ""),
]
