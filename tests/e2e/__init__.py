"""Browser end-to-end tests of the pages (dealerassist/web) against `dealerassist serve`."""
