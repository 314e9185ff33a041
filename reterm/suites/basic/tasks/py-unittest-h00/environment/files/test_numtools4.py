import unittest

from numtools4 import slugify, word_count, chunks


class TestNumtools4(unittest.TestCase):
    def test_slugify(self):
        self.assertEqual(slugify('Orbit  quartz'), 'orbit-quartz')
        self.assertEqual(slugify('plain'), 'plain')
        self.assertEqual(slugify('Two Words'), 'two-words')

    def test_word_count(self):
        self.assertEqual(word_count('one'), 1)
        self.assertEqual(word_count('a b c'), 3)
        self.assertEqual(word_count('delta  sierra end'), 3)

    def test_chunks(self):
        self.assertEqual(chunks([0, 1, 2, 3, 4, 5, 6], 2), [[0, 1], [2, 3], [4, 5], [6]])
        self.assertEqual(chunks(['a', 'b', 'c', 'd', 'e', 'f', 'g'], 3), [['a', 'b', 'c'], ['d', 'e', 'f'], ['g']])
        self.assertEqual(chunks([6, 6, 6, 6], 2), [[6, 6], [6, 6]])


if __name__ == "__main__":
    unittest.main()
