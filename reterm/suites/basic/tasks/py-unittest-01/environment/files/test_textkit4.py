import unittest

from textkit4 import clamp, word_count, chunks


class TestTextkit4(unittest.TestCase):
    def test_clamp(self):
        self.assertEqual(clamp(-5, 0, 10), 0)
        self.assertEqual(clamp(5, 0, 10), 5)
        self.assertEqual(clamp(79, 0, 33), 33)

    def test_word_count(self):
        self.assertEqual(word_count('nova  lumen end'), 3)
        self.assertEqual(word_count('one'), 1)
        self.assertEqual(word_count('a b c'), 3)

    def test_chunks(self):
        self.assertEqual(chunks([0, 1, 2, 3, 4, 5, 6], 2), [[0, 1], [2, 3], [4, 5], [6]])
        self.assertEqual(chunks(['a', 'b', 'c', 'd', 'e', 'f', 'g'], 3), [['a', 'b', 'c'], ['d', 'e', 'f'], ['g']])
        self.assertEqual(chunks([3, 3, 3, 3], 2), [[3, 3], [3, 3]])


if __name__ == "__main__":
    unittest.main()
