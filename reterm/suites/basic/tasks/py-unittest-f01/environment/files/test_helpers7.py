import unittest

from helpers7 import chunks, is_leap, word_count


class TestHelpers7(unittest.TestCase):
    def test_chunks(self):
        self.assertEqual(chunks([0, 1, 2, 3, 4, 5, 6, 7, 8], 2), [[0, 1], [2, 3], [4, 5], [6, 7], [8]])
        self.assertEqual(chunks(['a', 'b', 'c', 'd', 'e', 'f', 'g'], 3), [['a', 'b', 'c'], ['d', 'e', 'f'], ['g']])
        self.assertEqual(chunks([6, 6, 6, 6], 2), [[6, 6], [6, 6]])

    def test_is_leap(self):
        self.assertEqual(is_leap(2400), True)
        self.assertEqual(is_leap(2023), False)
        self.assertEqual(is_leap(2024), True)

    def test_word_count(self):
        self.assertEqual(word_count('one'), 1)
        self.assertEqual(word_count('a b c'), 3)
        self.assertEqual(word_count('juniper  harbor end'), 3)


if __name__ == "__main__":
    unittest.main()
