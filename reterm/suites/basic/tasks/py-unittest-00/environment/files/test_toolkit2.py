import unittest

from toolkit2 import word_count, chunks, percent


class TestToolkit2(unittest.TestCase):
    def test_word_count(self):
        self.assertEqual(word_count('one'), 1)
        self.assertEqual(word_count('a b c'), 3)
        self.assertEqual(word_count('vertex  umber end'), 3)

    def test_chunks(self):
        self.assertEqual(chunks([0, 1, 2, 3, 4, 5, 6, 7, 8], 2), [[0, 1], [2, 3], [4, 5], [6, 7], [8]])
        self.assertEqual(chunks(['a', 'b', 'c', 'd', 'e', 'f', 'g'], 3), [['a', 'b', 'c'], ['d', 'e', 'f'], ['g']])
        self.assertEqual(chunks([7, 7, 7, 7], 2), [[7, 7], [7, 7]])

    def test_percent(self):
        self.assertEqual(percent(1, 3), 33.3)
        self.assertEqual(percent(9, 10), 90.0)
        self.assertEqual(percent(5, 5), 100.0)


if __name__ == "__main__":
    unittest.main()
