import Database
