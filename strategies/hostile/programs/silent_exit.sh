#!/bin/sh
# Exits at once with status 0, without reading anything or answering.
exit 0
