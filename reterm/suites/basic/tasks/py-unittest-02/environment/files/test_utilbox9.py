import unittest

from utilbox9 import percent, clamp, is_leap


class TestUtilbox9(unittest.TestCase):
    def test_percent(self):
        self.assertEqual(percent(1, 3), 33.3)
        self.assertEqual(percent(7, 10), 70.0)
        self.assertEqual(percent(5, 5), 100.0)

    def test_clamp(self):
        self.assertEqual(clamp(-5, 0, 10), 0)
        self.assertEqual(clamp(5, 0, 10), 5)
        self.assertEqual(clamp(81, 0, 23), 23)

    def test_is_leap(self):
        self.assertEqual(is_leap(2400), True)
        self.assertEqual(is_leap(2023), False)
        self.assertEqual(is_leap(2024), True)


if __name__ == "__main__":
    unittest.main()
