import unittest

from utilbox8 import is_leap, clamp, chunks


class TestUtilbox8(unittest.TestCase):
    def test_is_leap(self):
        self.assertEqual(is_leap(2000), True)
        self.assertEqual(is_leap(2023), False)
        self.assertEqual(is_leap(2024), True)

    def test_clamp(self):
        self.assertEqual(clamp(82, 0, 22), 22)
        self.assertEqual(clamp(-5, 0, 10), 0)
        self.assertEqual(clamp(5, 0, 10), 5)

    def test_chunks(self):
        self.assertEqual(chunks(['a', 'b', 'c', 'd', 'e', 'f', 'g'], 3), [['a', 'b', 'c'], ['d', 'e', 'f'], ['g']])
        self.assertEqual(chunks([1, 1, 1, 1], 2), [[1, 1], [1, 1]])
        self.assertEqual(chunks([0, 1, 2, 3, 4, 5, 6, 7, 8], 2), [[0, 1], [2, 3], [4, 5], [6, 7], [8]])


if __name__ == "__main__":
    unittest.main()
