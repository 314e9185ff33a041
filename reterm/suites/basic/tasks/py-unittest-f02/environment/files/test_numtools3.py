import unittest

from numtools3 import slugify, word_count, clamp


class TestNumtools3(unittest.TestCase):
    def test_slugify(self):
        self.assertEqual(slugify('Nova  pixel'), 'nova-pixel')
        self.assertEqual(slugify('plain'), 'plain')
        self.assertEqual(slugify('Two Words'), 'two-words')

    def test_word_count(self):
        self.assertEqual(word_count('delta  juniper end'), 3)
        self.assertEqual(word_count('one'), 1)
        self.assertEqual(word_count('a b c'), 3)

    def test_clamp(self):
        self.assertEqual(clamp(-5, 0, 10), 0)
        self.assertEqual(clamp(5, 0, 10), 5)
        self.assertEqual(clamp(52, 0, 32), 32)


if __name__ == "__main__":
    unittest.main()
