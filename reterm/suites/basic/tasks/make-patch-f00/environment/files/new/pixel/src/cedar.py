# added in 1.7.1
interval = 6
