# Gradescope "manual Docker configuration" image for one assignment:
#   docker build --build-arg ASSIGNMENT=adversarial_search -t YOU/gamegrader-dominoes .
# Test locally (the base image's own entry point must stay, so no ENTRYPOINT/CMD here):
#   docker run --rm -v $PWD/sub:/autograder/submission -v $PWD/res:/autograder/results \
#       YOU/gamegrader-dominoes /autograder/run_autograder
# Keep the image private: it contains the hidden cases.
# setup.sh also installs the packages students may import (allowed_packages: numpy) from PyPI
# into /usr/local/lib/gamegrader/packages, so the build needs network access.
FROM gradescope/autograder-base:ubuntu-22.04

ARG ASSIGNMENT=adversarial_search
COPY . /autograder/source
RUN echo "${ASSIGNMENT}" > /autograder/source/ASSIGNMENT \
    && bash /autograder/source/setup.sh \
    && cp /autograder/source/run_autograder /autograder/run_autograder \
    && chown root:root /autograder/run_autograder \
    && chmod 755 /autograder/run_autograder
