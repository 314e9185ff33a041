import unittest

from helpers9 import percent, is_leap, slugify


class TestHelpers9(unittest.TestCase):
    def test_percent(self):
        self.assertEqual(percent(1, 3), 33.3)
        self.assertEqual(percent(7, 10), 70.0)
        self.assertEqual(percent(5, 5), 100.0)

    def test_is_leap(self):
        self.assertEqual(is_leap(2023), False)
        self.assertEqual(is_leap(2024), True)
        self.assertEqual(is_leap(2400), True)

    def test_slugify(self):
        self.assertEqual(slugify('Umber  nova'), 'umber-nova')
        self.assertEqual(slugify('plain'), 'plain')
        self.assertEqual(slugify('Two Words'), 'two-words')


if __name__ == "__main__":
    unittest.main()
