"""Helpers shared by the tests: scripted dice and campaign builders."""
