"""Fakes of outside services for tests."""
